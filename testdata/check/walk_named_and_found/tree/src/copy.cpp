// Copy one block's tile out; nothing left behind here.
extern "C" __global__ __aicore__ void copy_tile(GM_ADDR dst, GM_ADDR src)
{
    CopyTile(dst, src);
}
