@echo -off
# redirections and pipes
mkdir \rd
cd \rd
echo first > out.txt
echo second >> out.txt
type out.txt
echo ascii >a a.txt
echo more >>a a.txt
hexdump a.txt
echo start >> new.txt
type new.txt
ls \no\such\dir 2> err.txt
echo status %lasterror%
type err.txt
echo captured value >v myvar
echo [%myvar%]
echo hidden > nul
type out.txt | more
more < a.txt
type < a.txt
echo piped | \lib\..\lib\..\tests\..\rd\..\lib\show.nsh
cd \
rm \rd
