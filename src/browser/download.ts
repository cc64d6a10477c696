/**
 * Saves data as a file through the browser's download (every export button and the PNG export use this). DOM-only helpers live in
 * src/browser, below the viewer and the pages.
 */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke later: some browsers start reading the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const downloadText = (fileName: string, text: string, type: string): void => downloadBlob(fileName, new Blob([text], { type }));
