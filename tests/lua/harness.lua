-- Minimal test harness: test(name, fn) runs fn under pcall and counts the outcome.
local harness = { passed = 0, failed = 0 }

function harness.test(name, fn)
	local ok, err = pcall(fn)
	if ok then
		harness.passed = harness.passed + 1
	else
		harness.failed = harness.failed + 1
		print(("FAIL %s: %s"):format(name, tostring(err)))
	end
end

-- Asserts that fn raises an error whose message contains `pattern` (plain text).
function harness.raises(pattern, fn, ...)
	local ok, err = pcall(fn, ...)
	assert(not ok, "expected an error containing '" .. pattern .. "'")
	assert(tostring(err):find(pattern, 1, true), "error '" .. tostring(err) .. "' lacks '" .. pattern .. "'")
end

function harness.finish()
	-- The same suite runs under lua5.4 and LuaJIT; the label tells the runner which one this was.
	print(("%s: %d passed, %d failed"):format(jit and "luajit" or "lua", harness.passed, harness.failed))
	os.exit(harness.failed == 0 and 0 or 1, true)
end

return harness
