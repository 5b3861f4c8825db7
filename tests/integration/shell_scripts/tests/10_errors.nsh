@echo -off
# errors say what and where (standard error goes to a file here)
no_such_command 2> \err.txt
\lib\syntax.nsh 2>> \err.txt
cd \no\such\dir 2>> \err.txt
\lib\broken.nsh 2>> \err.txt
\lib\stops.nsh 2>> \err.txt
ls -z 2>> \err.txt
exit /b nine 2>> \err.txt
type \err.txt
rm \err.txt
