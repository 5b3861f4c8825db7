@echo -off
# mkdir, cd, cp, mv, rm, type, hexdump
if exist \scratch then
  rm \scratch
endif
mkdir \scratch \scratch\sub
cd \scratch
cd
echo abc >a one.txt
type one.txt
hexdump one.txt
cp -q one.txt two.txt
cp -q one.txt sub
type sub\one.txt
mv two.txt three.txt
if not exist two.txt and exist three.txt then
  echo renamed
endif
mv three.txt sub
if exist sub\three.txt then
  echo moved
endif
cd sub
cd
cd ..
cd
cp -q -r sub copy
type copy\three.txt
rm copy\one.txt
if not exist copy\one.txt then
  echo deleted one
endif
rm copy
if not exist copy then
  echo deleted tree
endif
echo ucs2 text > u.txt
type u.txt
hexdump -n 4 u.txt
hexdump -s 0x2 -n 2 u.txt
cd \
rm \scratch
if not exist \scratch then
  echo cleaned up
endif
