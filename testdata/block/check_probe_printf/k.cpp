void f(uint64_t a, uint64_t b)
{
    printf("[STAGE_B] start=%lu end=%lu\n", a, b);
    printf("[T_BASE] %lu\n", a);
    printf("sorted %d items\n", 3);
}
