int a;
int c;
