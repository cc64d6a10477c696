/** The header cells of a table sorted by one column: a click sorts by that column (again: the other way), aria-sort says how. */
import type { ReactNode } from 'react';

export function SortableHeader<K extends string>({
  columns,
  sort,
  onSort,
  testIdPrefix,
}: {
  columns: readonly { key: K; label: ReactNode }[];
  sort: { key: K; descending: boolean };
  onSort: (key: K) => void;
  /** Each cell's test id is `${testIdPrefix}-${key}`. */
  testIdPrefix: string;
}) {
  return columns.map((c) => (
    <th
      key={c.key}
      data-testid={`${testIdPrefix}-${c.key}`}
      onClick={() => onSort(c.key)}
      aria-sort={sort.key === c.key ? (sort.descending ? 'descending' : 'ascending') : 'none'}
    >
      {c.label}
      {sort.key === c.key ? (sort.descending ? ' ▼' : ' ▲') : ''}
    </th>
  ));
}
