// Vite turns `?raw` imports into the file's text (used for corpus vectors).
declare module "*?raw" {
  const text: string;
  export default text;
}
