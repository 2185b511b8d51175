void Wait()
{
    WaitFlag();
}
