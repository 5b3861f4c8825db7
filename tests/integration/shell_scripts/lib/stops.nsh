@echo -off
echo stops begins
if a zz b then
  echo not here
endif
echo not here either
