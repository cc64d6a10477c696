/** Export and share: structure files (the CLI's writers), PNG, GLB, a link to the view, and the session file. */
import { useState } from 'react';
import { WRITTEN_FORMATS } from '../../core/analysis/structure-export.ts';
import type { FormatId } from '../../core/io/types.ts';
import { downloadBlob, downloadText } from '../../browser/download.ts';
import { readTextFile } from '../../browser/read-file.ts';
import { errorText } from '../../core/errors.ts';
import { downloadStructure, useSession } from '../../state/session.ts';
import { currentSessionText, currentViewLink, openSession } from '../../state/structure-view.ts';
import { downloadPng } from '../../viewer/controller.ts';
import { FilePick } from '../../ui/FilePick.tsx';

const fail = (what: string) => (e: unknown) => useSession.setState({ error: `${what} failed: ${errorText(e)}` });

/** The solid PNG background: the theme's view colour (styles.css `--png-background`). */
const pngBackground = (): string => getComputedStyle(document.documentElement).getPropertyValue('--png-background').trim() || '#ffffff';

export function ExportPanel() {
  const display = useSession((s) => s.display);
  const settings = useSession((s) => s.settings);
  const hidden = useSession((s) => s.hiddenElements);
  const periodic = !!display?.cell;
  const [format, setFormat] = useState<FormatId>('cif');
  const [asShown, setAsShown] = useState(false);
  const [scale, setScale] = useState(2);
  const [transparent, setTransparent] = useState(true);
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<{ ok: boolean; text: string } | null>(null);
  const run = (what: string, job: () => Promise<unknown>) => {
    setBusy(true);
    job()
      .catch(fail(what))
      .finally(() => setBusy(false));
  };
  const supercell = `${settings.supercellA}×${settings.supercellB}×${settings.supercellC}`;
  return (
    <section className="export-panel" data-testid="export-panel">
      <h2>Export and share</h2>
      <div className="row">
        <select
          aria-label="structure file format"
          data-testid="export-format"
          value={format}
          onChange={(e) => setFormat(e.target.value as FormatId)}
        >
          {WRITTEN_FORMATS.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          data-testid="export-structure"
          disabled={!display || busy}
          onClick={() => run('The structure download', () => downloadStructure(format, asShown && periodic))}
        >
          Download
        </button>
      </div>
      {periodic && (
        <div className="row" role="radiogroup" aria-label="which structure">
          <label className="check">
            <input type="radio" data-testid="export-original" checked={!asShown} onChange={() => setAsShown(false)} />
            original
          </label>
          <label className="check" title="Sites wrapped into the cell and repeated as the supercell setting repeats them">
            <input type="radio" data-testid="export-as-shown" checked={asShown} onChange={() => setAsShown(true)} />
            as shown ({supercell})
          </label>
        </div>
      )}
      <div className="row">
        <label>
          PNG scale
          <select aria-label="PNG scale" data-testid="png-scale" value={scale} onChange={(e) => setScale(Number(e.target.value))}>
            {[1, 2, 3, 4].map((k) => (
              <option key={k} value={k}>
                {k}×
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" data-testid="png-transparent" checked={transparent} onChange={(e) => setTransparent(e.target.checked)} />
          transparent
        </label>
        <button
          type="button"
          data-testid="export-png-scaled"
          disabled={!display || busy}
          onClick={() => run('PNG export', () => downloadPng('structlab.png', scale, transparent ? null : pngBackground()))}
        >
          PNG
        </button>
        <button
          type="button"
          data-testid="export-glb"
          disabled={!display || busy}
          title="The 3D scene as binary glTF (atoms as spheres, bonds as cylinders) for slides and Blender"
          onClick={() =>
            run('glTF export', async () => {
              const { sceneGlb } = await import('../../viewer/gltf.ts');
              downloadBlob('structlab.glb', await sceneGlb(display!, settings, hidden));
            })
          }
        >
          GLB
        </button>
      </div>
      <div className="row">
        <button
          type="button"
          data-testid="share-link"
          disabled={!display || busy}
          onClick={() =>
            run('The link', async () => {
              const r = await currentViewLink(window.location.href);
              setLink(r.ok ? { ok: true, text: r.value } : { ok: false, text: r.error });
              if (r.ok) await navigator.clipboard?.writeText(r.value).catch(() => undefined);
            })
          }
        >
          Link to this view
        </button>
        <button
          type="button"
          data-testid="session-save"
          disabled={busy}
          title="A JSON file with the loaded files and the view; open it here to restore both"
          onClick={() =>
            run('Saving the session', async () => downloadText('structlab-session.json', await currentSessionText(), 'application/json'))
          }
        >
          Save session
        </button>
        <label className="file-button">
          Open session…
          <FilePick
            data-testid="session-input"
            accept=".json,application/json"
            onFiles={([f]) => run('Opening the session', async () => openSession(await readTextFile(f), f.name))}
          />
        </label>
      </div>
      {link &&
        (link.ok ? (
          <input className="share-url" aria-label="link to this view (copied)" data-testid="share-url" readOnly value={link.text} />
        ) : (
          <p className="hint" data-testid="share-note" role="status">
            {link.text}
          </p>
        ))}
    </section>
  );
}
