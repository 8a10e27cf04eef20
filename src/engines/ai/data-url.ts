import type { ChatImage } from "./types";

/** An image as a data: URL, the form both OpenAI-compatible servers and Workers AI's Llama 4 accept. */
export function dataUrl(image: ChatImage): string {
  let binary = "";
  const step = 0x8000;
  for (let i = 0; i < image.data.length; i += step) binary += String.fromCharCode(...image.data.subarray(i, i + step));
  return `data:${image.mime};base64,${btoa(binary)}`;
}

/** OpenAI's message shape: text, or text plus image parts on the last user message. */
export function openAiMessages(req: { messages: { role: string; content: string }[]; images?: ChatImage[] }) {
  const lastUser = req.messages.map((m) => m.role).lastIndexOf("user");
  return req.messages.map((m, i) => {
    if (i !== lastUser || !req.images?.length) return { role: m.role, content: m.content };
    return {
      role: m.role,
      content: [{ type: "text", text: m.content }, ...req.images.map((img) => ({ type: "image_url", image_url: { url: dataUrl(img) } }))],
    };
  });
}
