@echo -off
# aliases
alias -v say "echo said:"
say hello there
alias say
alias -d say
alias say 2> nul
echo alias gone %lasterror%
alias -v greet \lib\params.nsh
greet x y
alias -d greet
