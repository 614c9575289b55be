# SPDX-License-Identifier: LGPL-2.1-or-later
# @summary One [Set] value as iosched.conf(5) writes it (iosched::value), refused
# when a comment start (# or ; first or after a blank) would cut it short:
# [Set] values are not quoted.
# @param key the [Set] key
# @param value the value
function iosched::set_value(String $key, Any $value) >> String {
  $s = iosched::value($value, "set ${key}")
  if $s =~ /(\A|[ \t])[#;]/ {
    fail("iosched: set ${key}: the value would be cut at a comment (# or ; first or after a blank)")
  }
  $s
}
