dofile "premake5.lua"
