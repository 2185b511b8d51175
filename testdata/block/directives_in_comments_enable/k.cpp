void f()
{
#if 0  // TIMING_PROBE: TRICKY
    /* a block comment holding a directive
#endif
    */
    // #endif in a line comment
    const char *s = "#endif /* not a comment";
    const char *r = R"pk(
#endif
#else
)pk";
    char q = '"';
    int n = 1'000'000;
    char h = '#';
    printf("[TRICKY] start=%d\n", n); // continued comment \
#endif
#endif
    Work();
}
