#!/usr/bin/env python3
"""Fixtures for tests/unit/spglib-tables.test.ts from the real spglib 2.0.2 (run with /usr/bin/python3).

Writes tests/reference/golden/spglib/tables.json:

  types       for Hall numbers 1..530: spglib.get_spacegroup_type(h) fields, in the order of `type_fields`
  operations  for Hall numbers 1..530: spglib.get_symmetry_from_database(h), one 12-character string per
              operation: the 9 rotation entries row by row as '-', '0', '+' (-1, 0, 1), then the 3 translations
              in twelfths as base-12 digits (0-9, a, b). Each translation t is checked to be exactly k / 12.
  pointgroups for Hall numbers 1..530: spglib.get_pointgroup(rotations of h) = [symbol, number, 3x3 matrix]
  settings    rotation sets of Hall numbers in other settings, R' = P^-1 R P, covering all 32 point groups: small
              unimodular P, and primitive bases of the centred lattices (see main); {hall, kind, P, rotations
              (distinct, flattened 3x3), symbol, number, transformation_matrix}, where symbol/number/
              transformation_matrix are spglib.get_pointgroup(rotations).

Usage: /usr/bin/python3 scripts/make-spglib-tables-fixtures.py
"""

import importlib.util
import json
import os
import random

import numpy as np
import spglib

assert spglib.__version__ == '2.0.2', spglib.__version__

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, 'tests', 'reference', 'golden', 'spglib', 'tables.json')

TYPE_FIELDS = [
    'number', 'international_short', 'international_full', 'international', 'schoenflies',
    'hall_symbol', 'choice', 'pointgroup_international', 'pointgroup_schoenflies',
]
ROT_CHARS = {-1: '-', 0: '0', 1: '+'}
DIGITS = '0123456789ab'


def encode_op(rot, trans):
    s = ''
    for v in np.asarray(rot).reshape(9):
        s += ROT_CHARS[int(v)]
    for t in trans:
        k = int(round(float(t) * 12))
        assert 0 <= k < 12 and float(t) == k / 12, t
        s += DIGITS[k]
    return s


def pointgroup(rotations):
    symbol, number, tmat = spglib.get_pointgroup(np.array(rotations, dtype='intc'))
    return [symbol, int(number), [[int(x) for x in row] for row in tmat]]


# pointgroup.c's rot_axes (NUM_ROT_AXES = 73), for axis_search_defined only.
ROT_AXES = [
    (1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 1, 1), (1, 0, 1), (1, 1, 0), (0, 1, -1), (-1, 0, 1), (1, -1, 0),
    (1, 1, 1), (-1, 1, 1), (1, -1, 1), (1, 1, -1), (0, 1, 2), (2, 0, 1), (1, 2, 0), (0, 2, 1), (1, 0, 2),
    (2, 1, 0), (0, -1, 2), (2, 0, -1), (-1, 2, 0), (0, -2, 1), (1, 0, -2), (-2, 1, 0), (2, 1, 1), (1, 2, 1),
    (1, 1, 2), (2, -1, -1), (-1, 2, -1), (-1, -1, 2), (2, 1, -1), (-1, 2, 1), (1, -1, 2), (2, -1, 1),
    (1, 2, -1), (-1, 1, 2), (3, 1, 2), (2, 3, 1), (1, 2, 3), (3, 2, 1), (1, 3, 2), (2, 1, 3), (3, -1, 2),
    (2, 3, -1), (-1, 2, 3), (3, -2, 1), (1, 3, -2), (-2, 1, 3), (3, -1, -2), (-2, 3, -1), (-1, -2, 3),
    (3, -2, -1), (-1, 3, -2), (-2, -1, 3), (3, 1, -2), (-2, 3, 1), (1, -2, 3), (3, 2, -1), (-1, 3, 2),
    (2, -1, 3), (1, 1, 3), (-1, 1, 3), (1, -1, 3), (-1, -1, 3), (1, 3, 1), (-1, 3, 1), (1, 3, -1),
    (-1, 3, -1), (3, 1, 1), (3, 1, -1), (3, -1, 1), (3, -1, -1),
]
assert len(ROT_AXES) == 73


def axis_search_defined(rots):
    """True when pointgroup.c's get_axes succeeds on these rotations without reading uninitialised or
    out-of-range axes (a filter on inputs, not an expected value: the expected values come from spglib)."""
    distinct_rots = []
    for r in rots:
        if not any(np.array_equal(r, q) for q in distinct_rots):
            distinct_rots.append(np.array(r))
    number = pointgroup(distinct_rots)[1]
    if number == 0:
        return False
    proper = [r if round(np.linalg.det(r)) == 1 else -r for r in distinct_rots]

    def rotation_axis(pr):
        if np.array_equal(pr, np.eye(3, dtype=int)):
            return -1
        for i, v in enumerate(ROT_AXES):
            if tuple(pr @ np.array(v)) == v:
                return i
        return -1

    def orthogonal_axes(pr, order):
        total, rot = np.eye(3, dtype=int), np.eye(3, dtype=int)
        for _ in range(order - 1):
            rot = pr @ rot
            total = total + rot
        return [i for i, v in enumerate(ROT_AXES) if not (total @ np.array(v)).any()]

    def first_with_trace(trace):
        return next((pr for pr in proper if np.trace(pr) == trace), None)

    if number <= 2:  # LAUE1
        return True
    if number <= 5:  # LAUE2M: laue2m
        pr = first_with_trace(-1)
        if pr is None or rotation_axis(pr) == -1:
            return False
        ortho = orthogonal_axes(pr, 2)
        norms = [sum(x * x for x in ROT_AXES[i]) for i in ortho]
        return len(ortho) >= 2 and min(norms) < 8 and sorted(norms)[1] < 8
    if number <= 8 or number >= 28:  # LAUEMMM, LAUEM3 (two-fold axes), LAUEM3M (four-fold axes): lauennn
        trace = 1 if number >= 30 else -1
        axes = {rotation_axis(pr) for pr in proper if np.trace(pr) == trace}
        return -1 not in axes and len(axes) == 3
    # laue_one_axis: four-fold for 4/m and 4/mmm, three-fold for -3, -3m, 6/m, 6/mmm
    order = 4 if number <= 15 else 3
    pr = first_with_trace(1 if order == 4 else 0)
    if pr is None or rotation_axis(pr) == -1:
        return False
    ortho = orthogonal_axes(pr, order)
    c = np.array(ROT_AXES[rotation_axis(pr)])
    for i in ortho:
        vec = tuple(pr @ np.array(ROT_AXES[i]))
        for j in ortho:
            if vec == ROT_AXES[j] or vec == tuple(-x for x in ROT_AXES[j]):
                sign = 1 if vec == ROT_AXES[j] else -1
                tmat = np.array([ROT_AXES[i], [sign * x for x in ROT_AXES[j]], c]).T
                if abs(round(np.linalg.det(tmat))) < 4:
                    return True
                break
    return False


def main():
    rng = random.Random(20250225)
    types, operations, pointgroups, rotations_of = [], [], [], {}
    for h in range(1, 531):
        t = spglib.get_spacegroup_type(h)
        assert t['hall_number'] == h
        types.append([t[f] for f in TYPE_FIELDS])
        sym = spglib.get_symmetry_from_database(h)
        operations.append([encode_op(r, tr) for r, tr in zip(sym['rotations'], sym['translations'])])
        rotations_of[h] = [np.array(r, dtype=int) for r in sym['rotations']]
        pointgroups.append(pointgroup(sym['rotations']))
        assert pointgroups[-1][0] == t['pointgroup_international'], (h, pointgroups[-1], t)

    # Other settings. (1) Every point group twice (its first Hall number and a random other one, or the first
    # one twice), each under a random unimodular P (1-3 elementary factors). (2) The first Hall number of every
    # (point group, centring) pair with a centred lattice in a primitive basis, as spglib sees it after
    # primitive search, twice: P = (primitive vectors of the centring as columns), and that @ U, U unimodular
    # (1-2 factors); R' = P^-1 R P is integer. A P is kept only when spglib itself finds an invertible
    # transformation and pointgroup.c's axis search is well defined on it (see axis_search_defined and
    # stable_pointgroup below; rejected ones are counted). Rotations are stored without the repeats of centring
    # translations (in order of first appearance, which is what ptg_get_pointsymmetry keeps).
    elementary = []
    for perm in ([1, 0, 2], [0, 2, 1], [2, 1, 0], [1, 2, 0]):
        elementary.append(np.eye(3, dtype=int)[perm])
    for i in range(3):
        for j in range(3):
            if i != j:
                for s in (1, -1):
                    e = np.eye(3, dtype=int)
                    e[i, j] = s
                    elementary.append(e)
    third = 1 / 3
    primitive_basis = {  # spacegroup.h Centering value -> primitive vectors (columns), conventional coordinates
        2: [[-0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0.5, 0.5, -0.5]],  # BODY
        3: [[0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]],  # FACE
        4: [[1, 0, 0], [0, 0.5, -0.5], [0, 0.5, 0.5]],  # A_FACE
        5: [[0.5, 0, -0.5], [0, 1, 0], [0.5, 0, 0.5]],  # B_FACE
        6: [[0.5, -0.5, 0], [0.5, 0.5, 0], [0, 0, 1]],  # C_FACE
        8: [[2 * third, -third, -third], [third, third, -2 * third], [third, third, third]],  # R_CENTER
    }
    centering_of = {}
    spec = importlib.util.spec_from_file_location('tables', os.path.join(ROOT, 'scripts', 'make-spglib-tables.py'))
    tables_mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tables_mod)
    spg_json = json.load(open(os.path.join(tables_mod.OUT_DIR, 'spg_database.json')))
    for h in range(1, 531):
        centering_of[h] = spg_json['spacegroup_types'][h]['centering']

    def random_unimodular(lo, hi):
        while True:
            U = np.eye(3, dtype=int)
            for _ in range(rng.randint(lo, hi)):
                U = U @ elementary[rng.randrange(len(elementary))]
            if abs(round(np.linalg.det(U))) == 1:
                return U

    def distinct(rots):
        out = []
        for r in rots:
            if not any(np.array_equal(r, q) for q in out):
                out.append(r)
        return out

    # Where pointgroup.c's axis search fails (laue2m/laue_one_axis return 0, or an axis is -1), C goes on with
    # the uninitialised `axes` of ptg_get_layer_transformation_matrix: stack left-overs that depend on earlier
    # calls. Such rotation sets are not kept: axis_search_defined() checks the success conditions of the search
    # (not its result), and each candidate is also run after two different earlier calls and must give the
    # same answer both times.
    poison_a = rotations_of[1]
    fcc = np.array(primitive_basis[3])
    poison_b = [np.rint(np.linalg.inv(fcc) @ r @ fcc).astype(int) for r in distinct(rotations_of[523])]
    assert pointgroup(poison_a)[2] != pointgroup(poison_b)[2]

    def stable_pointgroup(rots):
        if not axis_search_defined(rots):
            return None
        pointgroup(poison_a)
        res_a = pointgroup(rots)
        pointgroup(poison_b)
        res_b = pointgroup(rots)
        return res_a if res_a == res_b else None

    pg_field = TYPE_FIELDS.index('pointgroup_international')
    settings, rejected = [], 0

    def try_setting(h, kind, make_p):
        nonlocal rejected
        for _ in range(50):
            P = make_p()
            if np.allclose(P, np.eye(3)):
                continue
            Pinv = np.linalg.inv(P)
            rots = []
            for r in distinct(rotations_of[h]):
                q = Pinv @ r @ P
                qi = np.rint(q).astype(int)
                assert np.allclose(q, qi), (h, P)
                rots.append(qi)
            res = stable_pointgroup(rots)
            if res is None or res[1] == 0 or round(np.linalg.det(np.array(res[2]))) == 0:
                rejected += 1
                continue
            assert res[0] == types[h - 1][pg_field], (h, res)
            settings.append({
                'hall': h,
                'kind': kind,
                'P': [[round(float(x), 6) for x in row] for row in P],
                'rotations': [[int(x) for x in r.reshape(9)] for r in rots],
                'symbol': res[0],
                'number': res[1],
                'transformation_matrix': res[2],
            })
            return
        raise SystemExit(f'no setting found for Hall number {h}')

    by_pg = {}
    for h in range(1, 531):
        by_pg.setdefault(types[h - 1][pg_field], []).append(h)
    assert len(by_pg) == 32
    for pg, halls in by_pg.items():
        for h in [halls[0], rng.choice(halls[1:]) if len(halls) > 1 else halls[0]]:
            try_setting(h, 'unimodular', lambda: random_unimodular(1, 3))
    seen = set()
    for h in range(1, 531):
        key = (types[h - 1][pg_field], centering_of[h])
        if centering_of[h] in primitive_basis and key not in seen:
            seen.add(key)
            basis = np.array(primitive_basis[centering_of[h]])
            try_setting(h, 'primitive', lambda: basis)
            try_setting(h, 'primitive', lambda: basis @ random_unimodular(1, 2))

    data = {
        'spglib_version': spglib.__version__,
        'type_fields': TYPE_FIELDS,
        'types': types,
        'operations': operations,
        'pointgroups': pointgroups,
        'settings': settings,
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, 'w') as f:
        json.dump(data, f, separators=(',', ':'))
        f.write('\n')
    print(f'{OUT}: {os.path.getsize(OUT)} bytes, {sum(len(o) for o in operations)} operations, '
          f'{len(settings)} settings ({len(set(s["symbol"] for s in settings))} point groups), '
          f'{rejected} random settings rejected')


if __name__ == '__main__':
    main()
