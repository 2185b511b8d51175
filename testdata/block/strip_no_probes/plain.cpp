// 核函数
int a;
	int b;  
#if 0
old();
#endif
int c;