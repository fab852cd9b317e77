function love.conf(t)
	t.identity = "gridtree-tiled"
	t.window.title = "gridtree: a Tiled level in LOVE" -- its size comes from the level (main.lua)
	t.modules.audio = false -- no sound needed; avoids ALSA noise on headless machines
	t.modules.sound = false
	-- GRIDTREE_FRAMES (the CI check) plays fixed 1/60 s frames as fast as they can be drawn.
	if os.getenv("GRIDTREE_FRAMES") then t.window.vsync = 0 end
end
