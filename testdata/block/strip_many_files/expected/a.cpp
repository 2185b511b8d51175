void Run()
{
    Launch();
}
