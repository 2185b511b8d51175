// tensor_api/tensor.h - Ascend C's tensor layer header (a name simpler's
// runtime also uses, without the directory).
#pragma once
