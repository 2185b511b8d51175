"""One decoder layer's norm step, through the extern of norm_externs.py."""

import pypto.language as pl
from norm_externs import row_norm_cce

DOC = "row_norm_cce(x, gamma, out)"  # a string, not a call
# the call below is row_norm_cce(x, gamma, out, stats, rows, eps)


@pl.jit
def norm_layer(
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
