// Package reallibsa is the module in which the client packages of
// testdata/src/libsa are analysed again, against the real retry libraries
// at the versions the stand-ins copy, so that a drift of a stand-in from
// its library shows as a changed finding. The test copies the packages in.
package reallibsa
