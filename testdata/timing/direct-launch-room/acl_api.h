// acl_api.h - the few runtime calls the host side of these cases makes.
#pragma once
#include <stddef.h>
#define __vector__
enum { ACL_MEM_MALLOC_HUGE_FIRST };
int aclrtMalloc(void **p, size_t size, int policy);
int aclrtMemset(void *p, size_t max, int value, size_t count);
int aclrtSynchronizeStream(void *stream);
