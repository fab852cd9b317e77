-- gridtree build: works with real premake5 (`premake5 gmake`) and Debian's premake4 4.3
-- (`premake4 --file=premake5.lua gmake`). Makefiles go to build/, binaries to bin/ (release) and
-- bin/debug/ (AddressSanitizer + UndefinedBehaviorSanitizer).
local IS_P4 = _PREMAKE_VERSION:sub(1, 1) == "4"

local function when(cfg)
	if filter then filter { "configurations:" .. cfg } else configuration(cfg) end
end

local function always()
	if filter then filter {} else configuration {} end
end

local function pkg(args)
	local f = io.popen("pkg-config " .. args .. " 2>/dev/null")
	local s = f:read("*a") or ""
	f:close()
	local t = {}
	for w in s:gmatch("%S+") do t[#t + 1] = w end
	return t
end

-- pkg-config --libs: -l into links (ordered after the objects), -L into libdirs.
local function pkg_libs(modules)
	local l, d = {}, {}
	for _, w in ipairs(pkg("--libs " .. modules)) do
		if w:sub(1, 2) == "-l" then l[#l + 1] = w:sub(3) elseif w:sub(1, 2) == "-L" then d[#d + 1] = w:sub(3) end
	end
	links(l)
	libdirs(d)
end

-- Keeps only the symbols matching `globals` exported from a shared object (a linker version
-- script; both premakes pass linkoptions through). The script is written into build/ here, so the
-- export lists live in this file next to the projects they belong to.
local function export_only(name, globals)
	local dir = path.join(path.getdirectory(_SCRIPT), "build")
	os.mkdir(dir)
	local file = path.join(dir, name .. ".ver")
	local f = assert(io.open(file, "w"))
	f:write("{\n\tglobal: " .. table.concat(globals, "; ") .. ";\n\tlocal: *;\n};\n")
	f:close()
	linkoptions { "-Wl,--version-script=" .. file }
end

local SANITIZE = { "-fsanitize=address,undefined,float-cast-overflow", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer" }
-- Tiled maps: JSON (cJSON), XML (expat), zlib and gzip (zlib), zstd: Debian packages, ./run installs them.
local SYSTEM_LIBS = { "cjson", "expat", "z", "zstd", "m", "pthread" }

solution "gridtree"
	configurations { "debug", "release" }
	language "C"
	location "build"
	objdir "build/obj"
	includedirs { "plugin/include" }
	buildoptions { "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-D_POSIX_C_SOURCE=200809L" }
	when "debug"
		targetdir "bin/debug"
		defines { "DEBUG" }
		buildoptions { "-O1", "-g" }
		buildoptions(SANITIZE)
		linkoptions(SANITIZE)
		if IS_P4 then flags { "Symbols" } else symbols "On" end
	when "release"
		targetdir "bin"
		defines { "NDEBUG" }
		buildoptions { "-O2", "-g" }
		if IS_P4 then flags { "Symbols" } else symbols "On" end
	always()

-- The library; -fPIC because it is linked into the Lua module. The CLI, tests and demo link it;
-- `./run install` installs it as libgridtree.a.
project "gridtree_core"
	kind "StaticLib"
	files { "plugin/src/**.c" }
	includedirs { "plugin/src" }
	buildoptions { "-fPIC" }

-- The tools support library (workload format and generator, replay, linear-scan twins, scenario
-- reader): linked by the CLI, the benchmarks and the tests, never by games.
project "gridtree_tools"
	kind "StaticLib"
	files { "tools/**.c" }
	includedirs { "tools" }

-- bin/libgridtree.so for C and C++ programs: the library's objects (gridtree_core's archive, whole,
-- as its objects are -fPIC: compiled once for both), exporting only the public API (gtXxx); the
-- internal gt_xxx functions stay local, so they cannot clash with the program's. The soname keeps
-- DT_NEEDED path-free when premake5 links it by path. ar only adds members: when a source is deleted
-- or renamed, delete bin/**/*.a (./run does when the set of sources changes), or its stale object
-- would be linked in whole.
project "gridtree_shared"
	kind "SharedLib"
	targetname "gridtree"
	links { "gridtree_core" } -- built first; relinked when the archive changes
	when "debug"
		linkoptions { "-Wl,--whole-archive", "../bin/debug/libgridtree_core.a", "-Wl,--no-whole-archive" }
	when "release"
		linkoptions { "-Wl,--whole-archive", "../bin/libgridtree_core.a", "-Wl,--no-whole-archive" }
	always()
	links(SYSTEM_LIBS)
	linkoptions { "-Wl,-soname,libgridtree.so" }
	export_only("libgridtree", { "gt[A-Z]*" })

-- bin/gridtree.so, loaded with require "gridtree"; the host provides the Lua API (no -llua).
project "gridtree_lua"
	kind "SharedLib"
	targetname "gridtree"
	targetprefix ""
	targetextension ".so"
	files { "plugin/lua/**.c" }
	buildoptions(pkg("--cflags lua5.4"))
	links { "gridtree_core" }
	links(SYSTEM_LIBS)
	-- Only the entry point: the library inside must not clash with another copy in the host.
	export_only("lua_module", { "luaopen_gridtree" })

-- The same module for LuaJIT (and LOVE), when LuaJIT's headers are installed: bin/luajit/gridtree.so
-- (bin/debug/luajit/ in debug).
if #pkg("--cflags luajit") > 0 then
	project "gridtree_luajit"
		kind "SharedLib"
		targetname "gridtree"
		targetprefix ""
		targetextension ".so"
		files { "plugin/lua/**.c" }
		buildoptions(pkg("--cflags luajit"))
		links { "gridtree_core" }
		links(SYSTEM_LIBS)
		export_only("lua_module", { "luaopen_gridtree" })
		when "debug"
			targetdir "bin/debug/luajit"
		when "release"
			targetdir "bin/luajit"
		always()
end

-- bin/gridtree-demo: SDL2 window (or headless PNG), agents scripted in embedded Lua 5.4.
project "gridtree_demo"
	kind "ConsoleApp"
	targetname "gridtree-demo"
	files { "demo/**.c", "plugin/lua/**.c" }
	buildoptions(pkg("--cflags sdl2 SDL2_image lua5.4"))
	links { "gridtree_core" }
	pkg_libs("sdl2 SDL2_image lua5.4")
	links(SYSTEM_LIBS)

-- bin/gridtree, the command-line tool.
project "gridtree_cli"
	kind "ConsoleApp"
	targetname "gridtree"
	files { "cli/**.c" }
	includedirs { "tools" }
	links { "gridtree_tools", "gridtree_core" }
	links(SYSTEM_LIBS)

-- bin/examples/nearest_healer, the standalone C example, linked against the shared library as a
-- program outside the tree would be (the rpath finds bin/libgridtree.so from bin/examples/).
project "example_nearest_healer"
	kind "ConsoleApp"
	targetname "nearest_healer"
	files { "examples/nearest_healer.c" }
	links { "gridtree_shared" }
	links(SYSTEM_LIBS)
	linkoptions { "-Wl,-rpath,'$$ORIGIN/..'" }
	when "debug"
		targetdir "bin/debug/examples"
	when "release"
		targetdir "bin/examples"
	always()

-- bin/gridtree-soak: the model-based soak (`./run soak [OPS]`; a short run in `./run test`).
project "gridtree_soak"
	kind "ConsoleApp"
	targetname "gridtree-soak"
	files { "tests/soak/**.c" }
	includedirs { "tools" }
	links { "gridtree_tools", "gridtree_core" }
	links(SYSTEM_LIBS)

-- Tests that read the library's internal headers (plugin/src) as well as its public API.
local internal_tests = { test_ehl_repair = true, test_ehl_ranked = true, test_links = true, test_links_ends = true, test_object_sides = true, test_free_runs = true, test_hub_labels_local = true, test_walk_bound = true }

-- The cmocka programs' shared helpers, compiled once for all of them.
project "test_support"
	kind "StaticLib"
	files { "tests/support/**.c" }
	includedirs { "tests/support", "tools" }

-- One cmocka program per module: tests/test_<module>.c and the shared helpers.
for _, file in ipairs(os.matchfiles("tests/test_*.c")) do
	local name = path.getbasename(file)
	project(name)
		kind "ConsoleApp"
		files { file }
		includedirs { "tests/support", "tools" }
		links { "test_support", "gridtree_tools", "gridtree_core", "cmocka" }
		if internal_tests[name] then -- test the library's internals
			includedirs { "plugin/src" }
		end
		if name:find("^test_lua_") then -- hosts compiling the Lua binding in (gt_lua.h)
			files { "plugin/lua/**.c" }
			buildoptions(pkg("--cflags lua5.4"))
			pkg_libs("lua5.4")
		end
		links(SYSTEM_LIBS)
end
