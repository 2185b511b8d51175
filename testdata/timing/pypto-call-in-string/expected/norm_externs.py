"""The row norm's CCE extern; the layer that calls it lives in layer.py."""

from pathlib import Path

import pypto.language as pl

_NORM_ENTRY = Path(__file__).parent / "kernels" / "norm_cce" / "entry" / "entry.cpp"


@pl.jit.extern(core_type="aiv", aiv_source=_NORM_ENTRY)
def row_norm_cce(
    x: pl.Tensor,
    gamma: pl.Tensor,
    out: pl.Out[pl.Tensor],
    stats: pl.InOut[pl.Tensor],
    pk_tt_timing: pl.Out[pl.Tensor],  # TIMING_PROBE: @timing tensor (args[4])
    rows: pl.Scalar[pl.INT32],
    eps: pl.Scalar[pl.FP32],
) -> pl.Tensor: ...
