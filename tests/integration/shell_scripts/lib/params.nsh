@echo -off
echo %0 has [%1] [%2] [%3] [%4]
shift
echo after shift [%1] [%2] [%3]
shift
shift
echo after three [%1]
