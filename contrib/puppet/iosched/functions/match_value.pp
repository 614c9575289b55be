# SPDX-License-Identifier: LGPL-2.1-or-later
# @summary One [Match] value of a policy drop-in as iosched.conf(5) writes it.
# Each alternative (a string, or each element of an array) is one pattern,
# written in double quotes when it has a blank or begins with # or ; (a
# comment there): 'PERC H700' is
# Model="PERC H700", not "PERC" or "H700". A leading ! negates the whole
# condition; Property= values are KEY=GLOB with one KEY; Size= is a range.
# The format has no escapes: a double quote, CR, LF or NUL is refused.
# @param key the [Match] key
# @param value the value
function iosched::match_value(String $key, Any $value) >> String {
  $items = $value ? { Array => $value, default => [$value] }
  if $items.empty {
    fail("iosched: match ${key}: an empty array matches nothing")
  }
  $strs = $items.map |$x| { iosched::value($x, "match ${key}") }
  if $key == 'Size' {
    $size = $strs.join(' ')
    if $size =~ /(\A|[ \t])[#;]/ {
      fail("iosched: match Size: the value would be cut at a comment (# or ; first or after a blank)")
    }
    $size
  } else {
    $neg = $strs[0] =~ /\A!/ ? { true => '!', default => '' }
    $alts = [regsubst($strs[0], /\A![ \t]*/, '')] + $strs[1, -1]
    if $key == 'Property' {
      $pairs = $alts.map |$x| {
        unless $x =~ /\A[^=]+=/ {
          fail("iosched: match Property: KEY=GLOB is expected, got '${x}'")
        }
        [regsubst($x, /=.*\z/, ''), regsubst($x, /\A[^=]*=/, '')]
      }
      $props = $pairs.map |$p| { $p[0] }.unique
      if $props.length != 1 {
        fail("iosched: match Property: one property per condition, got ${props.join(', ')}")
      }
      $prefix = "${props[0]}="
      $words = $pairs.map |$p| { $p[1] }
    } else {
      $prefix = ''
      $words = $alts
    }
    $quoted = $words.map |$w| {
      if $w =~ /"/ {
        fail("iosched: match ${key}: a value cannot contain a double quote (iosched.conf(5) has no escapes)")
      }
      $w =~ /\A\z|\A[#;]|[ \t]/ ? { true => "\"${w}\"", default => $w }
    }
    "${neg}${prefix}${quoted.join(' ')}"
  }
}
