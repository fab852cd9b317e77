function love.conf(t)
	t.identity = "gridtree-installed-test"
	t.window.width = 400
	t.window.height = 400
	t.window.vsync = 0 -- the test plays its frames as fast as they draw
	t.modules.audio = false
	t.modules.sound = false
end
