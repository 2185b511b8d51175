// copy_host.cpp - registers the kernel with an operator table; no launch here.
#include "op_table.h"

static const OpEntry kCopyRows = {"copy_rows", 3};
int RegisterCopyRows() { return RegisterOp(&kCopyRows); }
