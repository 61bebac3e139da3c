import { MongoClient } from "mongodb";
const c = new MongoClient("mongodb://127.0.0.1:27999/", { maxPoolSize: 200 }); await c.connect();
const coll = c.db("t").collection("y"); await coll.deleteMany({});
const ids = Array.from({length:320},(_,i)=>`d${i}`);
await coll.insertMany(ids.map(_id=>({_id,n:0})));
await Promise.all(ids.slice(0,160).map((_id,i)=> i%3===0? coll.findOneAndUpdate({_id},{$set:{n:1}}) : coll.updateOne({_id},{$set:{n:1}})));
console.log(await coll.countDocuments({n:1}));
await c.close();
