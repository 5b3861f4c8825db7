@echo -off
echo outer begins
\lib\exit_code.nsh 9
echo inner said %lasterror%
for %i run (1 3)
  if %i% == 2 then
    exit /b 3
  endif
  echo outer loop %i
endfor
echo never printed
