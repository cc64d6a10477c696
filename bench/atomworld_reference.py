"""pymatgen 2022.11 reference for bench/atomworld.bench.ts (run with Debian's /usr/bin/python3).

  atomworld_reference.py match PAIRS.json
      PAIRS.json: [{label, repeats, a: {lattice, species, frac}, b: {...}}]. Times
      StructureMatcher(primitive_cell=False, stol=0.5).fit(a, b) and get_rms_dist(a, b) inside Python
      (medians of `repeats`, excluding interpreter start and import). Prints JSON on stdout.
  atomworld_reference.py supercells CORPUS_DIR CASES.jsonl ANSWERS.jsonl
      Writes the inputs of the bench's supercells row (write_supercells).
  atomworld_reference.py batch CASES.jsonl ANSWERS.jsonl OUT.json
      AtomWorld's evaluation pipeline (AtomWorldBench src/evaluation/evaluator.py) on every case, written to OUT.json as
      [{id, correct, wrong_type, rmsd, max_dist}]: the text between the last <cif> and </cif>,
      CifParser(...).get_structures(primitive=False), the composition gate, fit(target, answer), then
      get_rms_dist. An exception anywhere else is the benchmark's "Unknown".
"""
import json
import sys
import time
import warnings

warnings.filterwarnings("ignore")

from pymatgen.core import Lattice, Structure  # noqa: E402
from pymatgen.io.cif import CifParser  # noqa: E402
from pymatgen.analysis.structure_matcher import StructureMatcher  # noqa: E402

MATCHER = StructureMatcher(primitive_cell=False, stol=0.5)


def median(xs):
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def timed(fn, repeats):
    samples, result = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    return median(samples), result


def to_structure(d):
    return Structure(Lattice(d["lattice"]), d["species"], d["frac"])


def run_match(path):
    out = {}
    for pair in json.load(open(path)):
        a, b = to_structure(pair["a"]), to_structure(pair["b"])
        fit_ms, fit = timed(lambda: MATCHER.fit(a, b), pair["repeats"])
        rms_ms, rms = timed(lambda: MATCHER.get_rms_dist(a, b), pair["repeats"])
        out[pair["label"]] = {
            "fit_ms": round(fit_ms, 2), "rms_dist_ms": round(rms_ms, 2), "fit": bool(fit),
            "rms": None if rms is None else float(rms[0]), "max_dist": None if rms is None else float(rms[1]),
        }
    print(json.dumps(out))


def parse_first(text):
    structures = CifParser.from_string(text).get_structures(primitive=False)
    if not structures:
        raise ValueError("no structures")
    return structures[0]


def judge(target_cif, answer):
    start, end = answer.rfind("<cif>"), answer.rfind("</cif>")
    if start < 0 or end < 0:
        return False, "OutputFormatError", None, None
    text = answer[start + len("<cif>"):end].strip()
    target = parse_first(target_cif)
    try:
        generated = parse_first(text)
    except Exception:
        return False, "CIFParsingError", None, None
    if len(generated) != len(target) or generated.composition.as_dict() != target.composition.as_dict():
        return False, "AtomCountMismatch", None, None
    if not MATCHER.fit(target, generated):
        return False, "StructureMismatch", None, None
    rms, max_dist = MATCHER.get_rms_dist(target, generated)
    return True, None, float(rms), float(max_dist)


def run_batch(cases_path, answers_path, out_path):
    answers = {}
    for line in open(answers_path):
        if line.strip():
            row = json.loads(line)
            answers[str(row["id"])] = row["answer"]
    verdicts = []
    for line in open(cases_path):
        if not line.strip():
            continue
        case = json.loads(line)
        case_id = str(case["id"])
        answer = answers.get(case_id)
        if answer is None:
            correct, wrong, rms, max_dist = False, "OutputFormatError", None, None
        else:
            try:
                correct, wrong, rms, max_dist = judge(case["after_cif"], answer)
            except Exception:
                correct, wrong, rms, max_dist = False, "Unknown", None, None
        verdicts.append({"id": case_id, "correct": correct, "wrong_type": wrong, "rmsd": rms, "max_dist": max_dist})
    json.dump(verdicts, open(out_path, "w"))


def write_supercells(corpus_dir, cases_path, answers_path, cases_wanted=42):
    """Cases for bench/atomworld.bench.ts's supercells row: 2×2×2 and 3×2×2 supercells (at most 300 sites) of the
    ordered COD crystals of the corpus with 2–40 sites, in file-name order, written with CifWriter as targets; as
    answers a copy jittered by 0.05 Å, one with a site moved by 1.2 Å along x, and one with its sites shuffled.
    Seeded, so every run writes the same files."""
    import glob
    import random

    import numpy
    from pymatgen.io.cif import CifWriter

    rng = random.Random(7)
    numpy.random.seed(7)
    cases, answers = [], []
    for path in sorted(glob.glob(f"{corpus_dir}/cod-*.cif")):
        try:
            s = Structure.from_file(path)
        except Exception:
            continue
        if not s.is_ordered or not 2 <= len(s) <= 40:
            continue
        for mult in ([2, 2, 2], [3, 2, 2]):
            cell = s.copy()
            cell.make_supercell(mult)
            if len(cell) > 300:
                continue
            target = str(CifWriter(cell))
            for kind in ("jitter", "moved", "shuffled"):
                answer = cell.copy()
                if kind == "jitter":
                    answer.perturb(0.05)  # random directions from numpy's generator, seeded above
                elif kind == "moved":
                    answer.translate_sites([rng.randrange(len(answer))], [1.2, 0, 0], frac_coords=False)
                else:
                    answer = Structure.from_sites(rng.sample(list(answer.sites), len(answer)))
                case_id = f"supercell-{len(cases)}"
                cases.append({"id": case_id, "action": kind, "after_cif": target})
                answers.append({"id": case_id, "answer": f"<cif>\n{CifWriter(answer)}\n</cif>"})
        if len(cases) >= cases_wanted:
            break
    with open(cases_path, "w") as f:
        f.write("".join(json.dumps(c) + "\n" for c in cases))
    with open(answers_path, "w") as f:
        f.write("".join(json.dumps(a) + "\n" for a in answers))


if __name__ == "__main__":
    if sys.argv[1] == "match":
        run_match(sys.argv[2])
    elif sys.argv[1] == "batch":
        run_batch(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "supercells":
        write_supercells(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(f"unknown mode {sys.argv[1]!r}; use match, batch or supercells")
