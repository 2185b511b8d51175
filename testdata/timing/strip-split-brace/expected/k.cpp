void k(int c)
{
	if (c) work(a);
}
