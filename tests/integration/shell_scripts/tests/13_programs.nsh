@echo -off
# programs: arguments, the shell protocols, redirected output, %lasterror%
# (\bin holds tests/programs/shell_client.efi and exit_status.efi, built with gnu-efi)
\bin\shell_client args "two words" three
\bin\shell_client env uefishellversion
\bin\shell_client setenv fromprog 12
echo set by the program: %fromprog%
\bin\shell_client cwd
\bin\shell_client files \lib\s*.nsh
\bin\shell_client write \w.txt written
\bin\shell_client read \w.txt
\bin\shell_client delete \w.txt
\bin\shell_client exec echo nested
\bin\shell_client info
\bin\shell_client stdout into-a-file > \s.txt
type \s.txt
rm \s.txt
\bin\shell_client status 0x800000000000000E
echo %lasterror%
\bin\exit_status not-found
if %lasterror% == UefiError(14) then
  echo not found as expected
endif
\bin\exit_status some args | more
\bin\exit_status exit
echo %lasterror%
