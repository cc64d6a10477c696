"""Writes tests/reference/golden/generations/pt/: PyTorch result files as CDVAE and DiffCSP save them, and what
their scripts/compute_metrics.py makes of them (run with Debian's /usr/bin/python3: torch 1.13, pymatgen 2022.11.7).

  /usr/bin/python3 scripts/make-pt-fixtures.py

Truths: the first five `test` rows of MP-20 (tests/reference/golden/generations/sources/mp20_rows.csv) with at most
8 sites. Predictions: the truths' arrays perturbed by a seeded RNG and cast to float32 (the models write float32),
two evals. The save calls follow jiaor17/DiffCSP scripts/evaluate.py (`eval_diff.pt`: leading num_evals dimension,
`input_data_batch` a torch_geometric Batch, here a stand-in class of the same name), txie-93/cdvae scripts/evaluate.py
(`eval_recon.pt`; `input_data_batch` as a dict of tensors, as DiffCSP's `load_data` builds it from .npy results) and
DiffCSP scripts/generation.py (`eval_gen.pt`: no leading dimension). The expected outputs re-implement
compute_metrics.py (`get_crystals_list`, `Crystal.get_structure`, `get_gt_crys_ori`, `RecEval`, `RecEvalBatch`) with
pymatgen's StructureMatcher(stol=0.5, angle_tol=10, ltol=0.3); validity (structure_validity, smact_validity) comes
from bench/generations_reference.py over the SMACT tables kept in the repository.
"""
import argparse
import csv
import io
import json
import os
import sys
import types
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "tests/reference/golden/generations")
OUT = os.path.join(GEN, "pt")
os.environ["STRUCTLAB_SMACT_DATA"] = os.path.join(GEN, "smact")
sys.path.insert(0, os.path.join(ROOT, "bench"))

import numpy as np  # noqa: E402
import torch  # noqa: E402
from pymatgen.analysis.structure_matcher import StructureMatcher  # noqa: E402
from pymatgen.core.lattice import Lattice  # noqa: E402
from pymatgen.core.structure import Structure  # noqa: E402
from scipy.stats import wasserstein_distance  # noqa: E402

import generations_reference as ref  # noqa: E402

TABLES = ref.smact_tables("legacy")


# A stand-in for torch_geometric's DataBatch (not installed here): pickled as a class of that module and name with
# its instance dict as state, which is how any class without __reduce__ is pickled.
tg = types.ModuleType("torch_geometric.data.batch")


class DataBatch:
    pass


DataBatch.__module__ = "torch_geometric.data.batch"
tg.DataBatch = DataBatch
sys.modules["torch_geometric"] = types.ModuleType("torch_geometric")
sys.modules["torch_geometric.data"] = types.ModuleType("torch_geometric.data")
sys.modules["torch_geometric.data.batch"] = tg


def truth_rows():
    rows = []
    with open(os.path.join(GEN, "sources/mp20_rows.csv"), newline="") as f:
        for r in csv.DictReader(f):
            if r["split"] != "test":
                continue
            s = Structure.from_str(r["cif"], fmt="cif")
            if len(s) <= 8:
                rows.append((r["material_id"], r["cif"], s))
            if len(rows) == 5:
                return rows
    return rows


def arrays_of(structures):
    """The tensors of a batch: frac_coords, atom_types, lengths, angles, num_atoms (CDVAE's data layout)."""
    return {
        "frac_coords": np.concatenate([s.frac_coords for s in structures]),
        "atom_types": np.concatenate([[site.specie.Z for site in s] for s in structures]),
        "lengths": np.array([s.lattice.abc for s in structures]),
        "angles": np.array([s.lattice.angles for s in structures]),
        "num_atoms": np.array([len(s) for s in structures]),
    }


def perturbed(structures, rng, scale, swap):
    """A prediction per truth: coordinates and lengths moved by `scale`, float32; `swap` crystals get two species swapped."""
    out = []
    for i, s in enumerate(structures):
        frac = s.frac_coords + rng.normal(0, scale, s.frac_coords.shape)
        abc = np.array(s.lattice.abc) * (1 + rng.normal(0, scale, 3))
        z = [site.specie.Z for site in s]
        if i in swap:
            z = list(reversed(z))
        out.append({"frac_coords": frac, "atom_types": np.array(z), "lengths": abc, "angles": np.array(s.lattice.angles)})
    return {
        "frac_coords": torch.tensor(np.concatenate([o["frac_coords"] for o in out]), dtype=torch.float32),
        "atom_types": torch.tensor(np.concatenate([o["atom_types"] for o in out]), dtype=torch.int64),
        "lengths": torch.tensor(np.array([o["lengths"] for o in out]), dtype=torch.float32),
        "angles": torch.tensor(np.array([o["angles"] for o in out]), dtype=torch.float32),
        "num_atoms": torch.tensor([len(s) for s in structures], dtype=torch.int64),
    }


def stacked(evals):
    """torch.stack over evals (dim 0), as evaluate.py stacks `batch_*` lists."""
    return {k: torch.stack([e[k] for e in evals], dim=0) for k in evals[0]}


# ---------------------------------------------------------------- compute_metrics.py, re-implemented


def get_crystals_list(frac_coords, atom_types, lengths, angles, num_atoms):
    """scripts/eval_utils.py get_crystals_list: .numpy() of each slice (float32 stays float32)."""
    assert frac_coords.size(0) == atom_types.size(0) == num_atoms.sum()
    assert lengths.size(0) == angles.size(0) == num_atoms.size(0)
    start, out = 0, []
    for batch_idx, num_atom in enumerate(num_atoms.tolist()):
        out.append({
            "frac_coords": frac_coords.narrow(0, start, num_atom).detach().cpu().numpy(),
            "atom_types": atom_types.narrow(0, start, num_atom).detach().cpu().numpy(),
            "lengths": lengths[batch_idx].detach().cpu().numpy(),
            "angles": angles[batch_idx].detach().cpu().numpy(),
        })
        start += num_atom
    return out


def crystal(d):
    """Crystal.get_structure: Lattice.from_parameters(*(lengths.tolist() + angles.tolist())), species = Z."""
    return Structure(
        lattice=Lattice.from_parameters(*(d["lengths"].tolist() + d["angles"].tolist())),
        species=d["atom_types"], coords=d["frac_coords"], coords_are_cartesian=False,
    )


def gt_crys_ori(cif):
    """DiffCSP get_gt_crys_ori: the CSV's CIF rebuilt from its lattice parameters."""
    s = Structure.from_str(cif, fmt="cif")
    return crystal({
        "frac_coords": s.frac_coords, "atom_types": np.array([sp.Z for sp in s.species]),
        "lengths": np.array(s.lattice.abc), "angles": np.array(s.lattice.angles),
    })


def valid(s):
    a = ref.assess(s, TABLES, "legacy", True)
    return a["struct_valid"] and a["comp_valid"]


MATCHER = StructureMatcher(stol=0.5, angle_tol=10, ltol=0.3)


def rms_or_none(pred, gt, is_valid):
    if not is_valid:
        return None
    try:
        r = MATCHER.get_rms_dist(pred, gt)
        return None if r is None else float(r[0])
    except Exception:
        return None


def rec_eval(preds, gts, gate_on_truth):
    """RecEval.get_match_rate_and_rms: DiffCSP gates on both crystals' validity, CDVAE on the prediction's."""
    validity = [valid(p) and (valid(g) if gate_on_truth else True) for p, g in zip(preds, gts)]
    rms = [rms_or_none(p, g, v) for p, g, v in zip(preds, gts, validity)]
    matched = [r for r in rms if r is not None]
    return {"match_rate": len(matched) / len(preds), "rms_dist": float(np.mean(matched)) if matched else None, "per_truth": rms}


def rec_eval_batch(preds, gts):
    """DiffCSP RecEvalBatch: the smallest rms over the evals of each truth; only the prediction's validity gates."""
    rms = []
    for i in range(len(preds[0])):
        found = [r for r in (rms_or_none(preds[j][i], gts[i], valid(preds[j][i])) for j in range(len(preds))) if r is not None]
        rms.append(min(found) if found else None)
    matched = [r for r in rms if r is not None]
    return {"match_rate": len(matched) / len(preds[0]), "rms_dist": float(np.mean(matched)) if matched else None, "per_truth": rms}


def as_json(s):
    return {
        "lattice": s.lattice.matrix.tolist(),
        "species": [site.specie.symbol for site in s],
        "frac": np.asarray(s.frac_coords, dtype=np.float64).tolist(),
    }


def crystals_of(data, batch_idx):
    """get_crystal_array_list's predictions: one eval (batch_idx ≥ 0), all evals (-1), or no leading dimension (-2)."""
    keys = ["frac_coords", "atom_types", "lengths", "angles", "num_atoms"]
    if batch_idx == -2:
        return [crystal(d) for d in get_crystals_list(*[data[k] for k in keys])]
    if batch_idx == -1:
        return [[crystal(d) for d in get_crystals_list(*[data[k][i] for k in keys])] for i in range(data["frac_coords"].shape[0])]
    return [crystal(d) for d in get_crystals_list(*[data[k][batch_idx] for k in keys])]


def gen_eval(preds, gts, diffcsp_cut):
    """GenEval.get_validity and get_density_wdist / get_num_elem_wdist over the valid predictions (all of them: upstream
    samples n_samples=1000 of them and raises with fewer, so a small file is compared whole), per prediction valid."""
    a = [ref.assess(p, TABLES, "legacy", diffcsp_cut) for p in preds]
    valid = [p for p, x in zip(preds, a) if x["struct_valid"] and x["comp_valid"]]
    n = len(preds)
    return {
        "n": n,
        "validity": {
            "compositional": sum(x["comp_valid"] for x in a) / n,
            "structural": sum(x["struct_valid"] for x in a) / n,
            "overall": len(valid) / n,
        },
        "wdist_density": float(wasserstein_distance([p.density for p in valid], [g.density for g in gts])),
        "wdist_num_elems": float(wasserstein_distance([len(set(p.species)) for p in valid], [len(set(g.species)) for g in gts])),
        "valid": [x["struct_valid"] and x["comp_valid"] for x in a],
    }


def gen_eval_expectations(expected):
    """compute_metrics.py's gen task on the saved files: get_crystal_array_list(path) with CDVAE's default batch_idx=0
    (eval 0 of a file with the num_evals dimension) and DiffCSP's batch_idx=-2 (a file without it); truths from
    input_data_batch (CDVAE) or the split CSV (DiffCSP --gt_file)."""
    keys = ["frac_coords", "atom_types", "lengths", "angles", "num_atoms"]
    csv_gts = []
    with open(os.path.join(OUT, "truth.csv"), newline="") as f:
        csv_gts = [gt_crys_ori(r["cif"]) for r in csv.DictReader(f)]
    recon = torch.load(os.path.join(OUT, "cdvae_eval_recon.pt"), map_location="cpu")
    tb = recon["input_data_batch"]
    recon_gts = [crystal(d) for d in get_crystals_list(*[tb[k] for k in keys])]
    diff = torch.load(os.path.join(OUT, "diffcsp_eval_diff.pt"), map_location="cpu")
    gen = torch.load(os.path.join(OUT, "diffcsp_eval_gen.pt"), map_location="cpu")
    files = expected["files"]
    files["cdvae_eval_recon.pt"]["gen_eval"] = {"batch_idx_0": gen_eval(crystals_of(recon, 0), recon_gts, False)}
    files["diffcsp_eval_diff.pt"]["gen_eval"] = {"batch_idx_0": gen_eval(crystals_of(diff, 0), csv_gts, True)}
    files["diffcsp_eval_gen.pt"]["gen_eval"] = {"batch_idx_-2": gen_eval(crystals_of(gen, -2), csv_gts, True)}


def write_expected(expected):
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")


def save(name, obj):
    path = os.path.join(OUT, name)
    torch.save(obj, path)
    return torch.load(path, map_location="cpu")


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(23)
    rows = truth_rows()
    truths = [s for _, _, s in rows]
    # The split's CSV as compute_metrics.py --gt_file reads it: index column, material_id, cif; rows in the .pt's order.
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["", "material_id", "cif"])
    for k, (mid, cif, _) in enumerate(rows):
        w.writerow([k, mid, cif])
    with open(os.path.join(OUT, "truth.csv"), "w", newline="") as f:
        f.write(buf.getvalue())
    ta = arrays_of(truths)
    expected = {"truth_ids": [mid for mid, _, _ in rows], "files": {}}

    # DiffCSP eval_diff.pt, two evals, each with one crystal whose species are reversed (crystal 2, then crystal 1).
    evals = [perturbed(truths, rng, 0.03, {2}), perturbed(truths, rng, 0.01, {1})]
    batch = DataBatch()
    batch.__dict__.update({k: torch.tensor(v) for k, v in ta.items()})
    data = save("diffcsp_eval_diff.pt", {
        "eval_setting": argparse.Namespace(model_path="/runs/mp20", dataset="mp", step_lr=-1, num_evals=2, label=""),
        "input_data_batch": batch,
        **stacked(evals),
        "lattices": torch.stack([torch.tensor(np.array([Lattice.from_parameters(*a, *b).matrix
                                                        for a, b in zip(e["lengths"].tolist(), e["angles"].tolist())]),
                                              dtype=torch.float32) for e in evals]),
        "time": 12.5,
    })
    gts = [gt_crys_ori(cif) for _, cif, _ in rows]
    all_evals = crystals_of(data, -1)
    expected["files"]["diffcsp_eval_diff.pt"] = {
        "eval_dimension": True,
        "input_data_batch": "torch_geometric.data.batch.DataBatch",
        "evals": [[as_json(s) for s in e] for e in all_evals],
        "truths": None,
        "csv_truths": [as_json(s) for s in gts],
        "metrics": {
            "diffcsp_one": rec_eval(crystals_of(data, 0), gts, True),
            "diffcsp_multi": rec_eval_batch(all_evals, gts),
        },
    }

    # CDVAE eval_recon.pt, two evals, input_data_batch a dict of tensors (float32, as a model's data loader holds them).
    evals = [perturbed(truths, rng, 0.02, {3}), perturbed(truths, rng, 0.2, set())]
    tb = {k: torch.tensor(v, dtype=torch.float32 if v.dtype.kind == "f" else torch.int64) for k, v in ta.items()}
    data = save("cdvae_eval_recon.pt", {
        "eval_setting": argparse.Namespace(model_path="/runs/cdvae", tasks=["recon"], n_step_each=100, num_evals=2),
        "input_data_batch": tb,
        **stacked(evals),
        "all_frac_coords_stack": [],
        "all_atom_types_stack": [],
        "time": 3.25,
    })
    gts = [crystal(d) for d in get_crystals_list(*[tb[k] for k in ["frac_coords", "atom_types", "lengths", "angles", "num_atoms"]])]
    all_evals = crystals_of(data, -1)
    expected["files"]["cdvae_eval_recon.pt"] = {
        "eval_dimension": True,
        "input_data_batch": "dict",
        "evals": [[as_json(s) for s in e] for e in all_evals],
        "truths": [as_json(s) for s in gts],
        "metrics": {"cdvae": rec_eval(crystals_of(data, 0), gts, False)},
    }

    # DiffCSP eval_gen.pt (scripts/generation.py): torch.cat over batches, no leading dimension.
    e = perturbed(truths, rng, 0.03, set())
    data = save("diffcsp_eval_gen.pt", {
        "eval_setting": argparse.Namespace(model_path="/runs/mp20", dataset="mp", batch_size=500, num_batches_to_samples=1),
        **e,
        "time": 1.0,
    })
    expected["files"]["diffcsp_eval_gen.pt"] = {
        "eval_dimension": False,
        "input_data_batch": None,
        "evals": [[as_json(s) for s in crystals_of(data, -2)]],
        "truths": None,
    }

    # Tensors of every dtype read here, as views: transposed, sliced with an offset, expanded (stride 0), empty.
    base = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4) / 8
    tensors = {
        "f32_t": base[1].t(),
        "f32_slice": base[:, 1:, ::2],
        "f64": torch.tensor([[1.5, -2.25], [1e300, 5e-324]], dtype=torch.float64)[:, 1],
        "i64": torch.tensor([0, -1, 2**53, -(2**53)], dtype=torch.int64),
        "i32": torch.tensor([[1, -2], [3, 2**31 - 1]], dtype=torch.int32).t(),
        "i16": torch.tensor([-32768, 7], dtype=torch.int16),
        "i8": torch.tensor([-128, 127], dtype=torch.int8),
        "u8": torch.tensor([0, 255], dtype=torch.uint8),
        "bool": torch.tensor([True, False, True]),
        "f16": torch.tensor([1.0, -0.5, 65504.0, 6e-8], dtype=torch.float16),
        "bf16": torch.tensor([1.0, -3.0, 1e30], dtype=torch.bfloat16),
        "expanded": torch.tensor([7.0]).expand(3),
        "empty": torch.zeros(0, 3),
        "scalar": torch.tensor(2.5),
    }
    data = save("tensors.pt", {"tensors": tensors, "nested": [1, (2, "three"), {"four": None}], "big": 2**70, "neg": -(2**40)})
    expected["tensors"] = {
        k: {
            "dtype": str(v.dtype).replace("torch.", ""),
            "shape": list(v.shape),
            "strides": list(v.stride()),
            "offset": v.storage_offset(),
            "values": v.double().flatten().tolist() if v.dtype != torch.int64 else [str(x) for x in v.flatten().tolist()],
        }
        for k, v in data["tensors"].items()
    }

    gen_eval_expectations(expected)
    write_expected(expected)


if __name__ == "__main__":
    # --gen-eval: only add the gen task's expectations to expected.json, from the .pt files already saved (their bytes
    # stay as they are).
    if sys.argv[1:] == ["--gen-eval"]:
        with open(os.path.join(OUT, "expected.json")) as f:
            saved = json.load(f)
        gen_eval_expectations(saved)
        write_expected(saved)
    else:
        main()
