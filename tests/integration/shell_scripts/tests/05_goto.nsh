@echo -off
# goto and labels
goto forward
echo skipped
:forward
echo after forward
set -v i 0
:again
if %i% == 0 then
  set -v i 1
  echo going back
  goto again
endif
echo back done
for %k run (1 5)
  echo loop %k
  if %k == 2 then
    goto out
  endif
endfor
:out
echo out of the loop
