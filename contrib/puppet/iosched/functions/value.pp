# SPDX-License-Identifier: LGPL-2.1-or-later
# @summary One value of a policy drop-in as iosched.conf(5) writes it.
# An array is blank-separated alternatives (an element with a blank is
# quoted), a boolean is 1 or 0, anything else its string.
function iosched::value(Any $value) >> String {
  case $value {
    Array: {
      $value.map |$x| {
        $s = iosched::value($x)
        $s =~ /\s/ ? { true => "\"${s}\"", default => $s }
      }.join(' ')
    }
    Boolean: { $value ? { true => '1', default => '0' } }
    default: { String($value) }
  }
}
