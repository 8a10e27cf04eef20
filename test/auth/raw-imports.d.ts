// Vite's `?raw` suffix imports a file as its text (test/auth/ocr-worker-access.test.ts reads a wrangler.toml so).
declare module "*?raw" {
  const text: string;
  export default text;
}
