# SPDX-License-Identifier: LGPL-2.1-or-later
# @summary One value of a policy drop-in as iosched.conf(5) writes it.
# An array is blank-separated (Scheduler= preferences), a boolean is 1 or 0,
# anything else its string. CR, LF and NUL are refused: a line break would
# add lines ([Match] ...) to the drop-in.
# @param value the value
# @param what the key, for the error message
function iosched::value(Any $value, String $what = 'value') >> String {
  $s = $value ? {
    Array   => $value.map |$x| { iosched::value($x, $what) }.join(' '),
    Boolean => $value ? { true => '1', default => '0' },
    Undef   => '',
    default => String($value),
  }
  if $s =~ /[\r\n\u0000]/ {
    fail("iosched: ${what}: a value cannot contain CR, LF or NUL")
  }
  $s
}
