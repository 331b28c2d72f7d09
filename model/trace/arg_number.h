// The number a string arg spells, for files that write numbers as strings: XProf's trace
// JSON writes every XSpace stat value as a string ("bytes_allocated":"1048576").
#pragma once

#include "model/trace/args.h"
#include "model/trace/string_table.h"

namespace tracescope {

// "1234", "-5", "18446744073709551615", "0.25" as an Int, UInt or Double value; any other
// value (numbers included) unchanged.
ArgValue numericArg(const ArgValue& value, const StringTable& strings);

}  // namespace tracescope
