@echo -off
# %0..%9 and shift
\lib\params.nsh first "second arg" third
\lib\params.nsh
