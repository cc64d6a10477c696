/** The "Benchmark vs physics" box: the reference quirks that apply to what the view shows (quirks.ts). */
import type { QuirkNote } from './quirks.ts';

export function QuirkNotes({ notes }: { notes: QuirkNote[] }) {
  if (!notes.length) return null;
  return (
    <section className="fem-quirks" data-testid="fem-quirks">
      <h4>Benchmark vs physics</h4>
      <ul>
        {notes.map((n) => (
          <li key={n.id} data-testid={`fem-quirk-${n.id}`}>
            {n.text}
          </li>
        ))}
      </ul>
    </section>
  );
}
