/** Editable tables of the frame: nodes (coordinates, support flags, loads) and elements (connectivity, section). */
import { editModel, useFem } from '../../state/fem.ts';
import { DOF_NAMES, REACTION_NAMES, type FrameElementRow } from '../../core/tasks/fembench/lab/frame-model.ts';

/** A number cell that commits on blur / Enter; an unparsable entry is refused with a message. */
function NumberCell({
  value,
  onCommit,
  testId,
  width = 70,
}: {
  value: number;
  onCommit: (v: number) => void;
  testId?: string;
  width?: number;
}) {
  return (
    <input
      className="fem-num"
      style={{ width }}
      defaultValue={String(value)}
      key={String(value)}
      data-testid={testId}
      onKeyDown={(e) => {
        if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
      }}
      onBlur={(e) => {
        const v = Number(e.target.value.trim());
        if (e.target.value.trim() === '' || !Number.isFinite(v)) {
          useFem.setState({ error: `"${e.target.value}" is not a number.` });
          e.target.value = String(value);
          return;
        }
        if (v !== value) onCommit(v);
      }}
    />
  );
}

const SECTION_KEYS = ['E', 'nu', 'A', 'I_y', 'I_z', 'J', 'I_rho'] as const;

export function ModelTables() {
  const model = useFem((s) => s.model);
  const n = model.node_coords.length;
  return (
    <div className="fem-tables" data-testid="fem-tables">
      <h3>Nodes</h3>
      <table>
        <thead>
          <tr>
            <th>#</th>
            <th>x</th>
            <th>y</th>
            <th>z</th>
            {DOF_NAMES.map((d) => (
              <th key={d} title={`fix ${d}`}>
                {d}
              </th>
            ))}
            {REACTION_NAMES.map((d) => (
              <th key={d}>{d}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {model.node_coords.map((c, i) => {
            const flags = model.boundary_conditions[String(i)] ?? [];
            const load = model.nodal_loads[String(i)] ?? [0, 0, 0, 0, 0, 0];
            return (
              <tr key={i}>
                <td>{i}</td>
                {[0, 1, 2].map((k) => (
                  <td key={k}>
                    <NumberCell
                      value={c[k]}
                      testId={`fem-node-${i}-${'xyz'[k]}`}
                      onCommit={(v) =>
                        editModel((m) => {
                          m.node_coords[i][k] = v;
                        })
                      }
                    />
                  </td>
                ))}
                {DOF_NAMES.map((d, k) => (
                  <td key={d}>
                    <input
                      type="checkbox"
                      checked={Boolean(flags[k])}
                      aria-label={`node ${i} fix ${d}`}
                      onChange={(e) =>
                        editModel((m) => {
                          const f = (m.boundary_conditions[String(i)] ?? [0, 0, 0, 0, 0, 0]).map((x) => (x ? 1 : 0));
                          f[k] = e.target.checked ? 1 : 0;
                          if (f.some(Boolean)) m.boundary_conditions[String(i)] = f;
                          else delete m.boundary_conditions[String(i)];
                        })
                      }
                    />
                  </td>
                ))}
                {REACTION_NAMES.map((d, k) => (
                  <td key={d}>
                    <NumberCell
                      value={load[k]}
                      width={62}
                      testId={`fem-load-${i}-${d}`}
                      onCommit={(v) =>
                        editModel((m) => {
                          const f = [...(m.nodal_loads[String(i)] ?? [0, 0, 0, 0, 0, 0])];
                          f[k] = v;
                          if (f.some((x) => x !== 0)) m.nodal_loads[String(i)] = f;
                          else delete m.nodal_loads[String(i)];
                        })
                      }
                    />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="fem-row">
        <button
          onClick={() =>
            editModel((m) => {
              const last = m.node_coords[m.node_coords.length - 1] ?? [0, 0, 0];
              m.node_coords.push([last[0] + 1, last[1], last[2]]);
            })
          }
        >
          add node
        </button>
        <button
          disabled={n <= 2}
          onClick={() =>
            editModel((m) => {
              const k = m.node_coords.length - 1;
              m.node_coords.pop();
              m.elements = m.elements.filter((e) => e.node_i !== k && e.node_j !== k);
              delete m.boundary_conditions[String(k)];
              delete m.nodal_loads[String(k)];
            })
          }
        >
          remove last node
        </button>
      </div>
      <h3>Elements</h3>
      <table>
        <thead>
          <tr>
            <th>#</th>
            <th>i</th>
            <th>j</th>
            {SECTION_KEYS.map((k) => (
              <th key={k}>{k === 'nu' ? 'ν' : k}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {model.elements.map((e, k) => (
            <tr key={k}>
              <td>{k}</td>
              {(['node_i', 'node_j'] as const).map((key) => (
                <td key={key}>
                  <NumberCell
                    value={e[key]}
                    width={36}
                    onCommit={(v) =>
                      editModel((m) => {
                        m.elements[k][key] = v;
                      })
                    }
                  />
                </td>
              ))}
              {SECTION_KEYS.map((key) => (
                <td key={key}>
                  <NumberCell
                    value={e[key] ?? NaN}
                    width={78}
                    testId={`fem-el-${k}-${key}`}
                    onCommit={(v) =>
                      editModel((m) => {
                        (m.elements[k] as FrameElementRow)[key] = v;
                      })
                    }
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="fem-row">
        <button
          onClick={() =>
            editModel((m) => {
              const last = m.elements[m.elements.length - 1];
              m.elements.push({ ...last, node_i: Math.max(0, m.node_coords.length - 2), node_j: m.node_coords.length - 1 });
            })
          }
        >
          add element
        </button>
        <button
          disabled={model.elements.length <= 1}
          onClick={() =>
            editModel((m) => {
              m.elements.pop();
            })
          }
        >
          remove last element
        </button>
      </div>
    </div>
  );
}
