// Short forms of C++ and GPU kernel names, as the timeline, tables and charts
// show them by default (the full name stays in tooltips, details and CSV).
//
// A name with C++ syntax (a parameter list right after the function name, or
// template arguments) loses its return type, its namespaces and its parameter
// list; its template arguments stay, themselves without namespaces:
//   void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>,
//       std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)
//   -> vectorized_elementwise_kernel<4, FillFunctor<float>, array<char*, 1ul>>
// Anything else (aten::mm, Memcpy HtoD (Pageable -> Device), TF op paths,
// Python frames) stays as it is. Views elide what does not fit at the right.
#pragma once

#include "model/trace/string_table.h"

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tracescope {

enum class NameStyle { Full, Short };

// The short form of one name (no disambiguation).
std::string shortName(std::string_view full);

// Short forms of names shown together: where different names would get the
// same short form, each keeps the shortest namespace prefix that tells it
// apart from the others (and, if even the full qualified name does not, its
// template arguments' namespaces too). Names that differ only in return type
// or parameter list keep one short form. Result in the order of `names`.
std::vector<std::string> shortNames(std::span<const std::string_view> names);
std::vector<std::string> shortNames(std::span<const std::string> names);

// Short forms of every string of a table that has one different from itself
// (disambiguated over the whole table), by id.
std::unordered_map<StringId, std::string> shortNamesOf(const StringTable& strings);

}  // namespace tracescope
