@echo -off
# exit /b with codes, nested scripts, %lasterror%
\lib\exit_code.nsh 7
echo nested returned %lasterror%
\lib\exit_code.nsh 0
echo nested returned %lasterror%
\lib\outer.nsh
echo outer returned %lasterror%
if %lasterror% == 3 then
  echo three
endif
