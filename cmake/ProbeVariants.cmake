# probe_add_variants(): one clean kernel source -> production + one build per probe (issue #3).
