void f()
{
    Work();
}
