void f()
{
	Work();
}
