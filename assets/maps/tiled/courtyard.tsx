<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="courtyard" tilewidth="16" tileheight="16" tilecount="2" columns="2">
 <image source="courtyard.png" width="32" height="16"/>
 <tile id="0" type="floor"/>
 <tile id="1" type="wall">
  <properties>
   <property name="collides" type="bool" value="true"/>
  </properties>
 </tile>
</tileset>
