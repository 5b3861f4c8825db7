@echo -off
# echo, quoting, escapes, comments and variables
echo plain   words    joined
echo "quoted   spaces kept"
echo a"b c"d
echo ^"caret^" ^^ ^# ^| ^> ^%path^%
echo one # a comment
echo "#not a comment"
set -v greeting Hello
set -v who "big world"
echo %greeting%, %who%!
echo [%undefined%]
echo 100% sure
set -v greeting
set -d greeting
echo [%greeting%]
set -v a 1
set -v b 2
echo %a%%b%
echo %uefishellversion%
