"""A fused row norm as a mixed CCE extern (its cube and vector lanes build one
entry), called from a jit function."""

from pathlib import Path

import pypto.language as pl

_DIR = Path(__file__).parent / "kernels" / "norm_cce"
_NORM_ENTRY = _DIR / "entry" / "entry.cpp"
_STATS_ENTRY = _DIR / "entry" / "stats.cpp"


@pl.jit.extern(core_type="aiv", aiv_source=_STATS_ENTRY)
def row_stats_cce(
    x: pl.Tensor,
    stats: pl.Out[pl.Tensor],
    rows: pl.Scalar[pl.INT32],
) -> pl.Tensor: ...


@pl.jit.extern(
    core_type="mixed",
    aic_source=_NORM_ENTRY,
    aiv_source=_NORM_ENTRY,
    dual_aiv_dispatch=True,
)
def row_norm_cce(
    x: pl.Tensor,
    gamma: pl.Tensor,
    out: pl.Out[pl.Tensor],
    stats: pl.InOut[pl.Tensor],
    pk_tt_timing: pl.Out[pl.Tensor],  # TIMING_PROBE: @timing tensor (args[4])
    rows: pl.Scalar[pl.INT32],
    eps: pl.Scalar[pl.FP32],
) -> pl.Tensor: ...


@pl.jit
def fused_norm(
    x: pl.Tensor[[64, 512], pl.FP32],
    gamma: pl.Tensor[[512], pl.FP32],
    out: pl.Out[pl.Tensor[[64, 512], pl.FP32]],
) -> pl.Tensor[[64, 512], pl.FP32]:
    stats = pl.create_tensor([64, 2], dtype=pl.FP32)
    rows = pl.cast(pl.tensor.dim(x, 0), pl.INT32)
    pk_tt_timing = pl.create_tensor([8, 8], dtype=pl.INT64)  # TIMING_PROBE: @timing tensor
    with pl.spmd(8, name_hint="norm") as _tid:
        out = row_norm_cce(
            x,
            gamma,
            out,
            stats,
            pk_tt_timing,  # TIMING_PROBE: @timing tensor argument
            rows,
            1e-6,
        )
    return out
