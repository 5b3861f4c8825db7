@echo -off
# if/else/endif: strings, numbers, exist, not, and, or
set -v n 42
if %n% == 42 then
  echo equal
else
  echo wrong
endif
if abc == ABC then
  echo wrong
else
  echo case matters
endif
if /i abc == ABC then
  echo /i ignores case
endif
if %n% gt 9 then
  echo 42 gt 9 as numbers
endif
if /s %n% lt 9 then
  echo 42 lt 9 as strings
endif
if 0x2A eq 42 and -1 lt 0 then
  echo hex and negative
endif
if 0xFFFFFFFFFFFFFFFF ugt 1 then
  echo unsigned
endif
if 3 ne 4 or 1 == 2 then
  echo or
endif
if not 1 == 2 then
  echo not
endif
if exist \tests\03_if.nsh then
  echo exist file
endif
if not exist \nothing\here.txt then
  echo not exist
endif
if exist \lib then
  echo exist directory
endif
if 5 ge 5 and 5 le 5 and 2 ult 3 and 3 uge 3 and 3 ule 4 then
  echo ge le ult uge ule
endif
if ( 1 == 2 or 2 == 2 ) and not ( 3 == 4 ) then
  echo parentheses
endif
if isint(17) and not isint(x1) then
  echo isint
endif
if a == a then
  if b == c then
    echo wrong
  else
    echo nested else
  endif
endif
if "" == "" then
  echo empty strings
endif
