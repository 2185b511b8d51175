/*
{  // TIMING_PROBE_BRACE: 0
*/
int a;
