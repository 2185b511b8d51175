int clean;
