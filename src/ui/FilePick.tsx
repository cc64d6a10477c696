/**
 * A file input that hands over the files picked (none: nothing happens) and then forgets them, so that picking the
 * same file again is a change too. `folder` picks a whole folder (webkitdirectory is not among React's attributes).
 */
import type { ComponentProps } from 'react';

const FOLDER = { webkitdirectory: '', directory: '' } as Record<string, string>;

export function FilePick({
  onFiles,
  folder = false,
  ...input
}: Omit<ComponentProps<'input'>, 'type' | 'onChange'> & { onFiles: (files: File[]) => void; folder?: boolean }) {
  return (
    <input
      type="file"
      {...(folder ? FOLDER : {})}
      {...input}
      onChange={(e) => {
        const files = [...(e.currentTarget.files ?? [])];
        e.currentTarget.value = '';
        if (files.length) onFiles(files);
      }}
    />
  );
}
